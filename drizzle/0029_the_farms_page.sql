CREATE TABLE `farm_page` (
	`version` text PRIMARY KEY NOT NULL,
	`words` text NOT NULL,
	`changed_at` integer NOT NULL,
	`changed_by` integer,
	FOREIGN KEY (`changed_by`) REFERENCES `team`(`id`) ON UPDATE no action ON DELETE set null
);
