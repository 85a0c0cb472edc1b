CREATE TABLE `farm_settings` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL,
	`changed_at` integer NOT NULL
);
