-- A receiver that could not take anything lately waits in the database, not in memory (issue 45, decision 035): a restart does not hurry it.
CREATE TABLE `receiver_pauses` (
	`receiver` text PRIMARY KEY NOT NULL,
	`until` integer NOT NULL,
	`failures_in_a_row` integer NOT NULL,
	`failing_since` integer NOT NULL
);
