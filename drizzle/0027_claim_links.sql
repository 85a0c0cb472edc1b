CREATE TABLE `claim_links` (
	`id` integer PRIMARY KEY NOT NULL,
	`hash` text NOT NULL,
	`until` integer NOT NULL
);
