CREATE TABLE `submission_tags` (
	`kind` text NOT NULL,
	`value` text NOT NULL,
	`submission_id` integer NOT NULL,
	PRIMARY KEY(`kind`, `value`, `submission_id`),
	FOREIGN KEY (`submission_id`) REFERENCES `submissions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `submission_tags_by_submission` ON `submission_tags` (`submission_id`);--> statement-breakpoint
CREATE TABLE `tag_counts` (
	`kind` text NOT NULL,
	`value` text NOT NULL,
	`count` integer NOT NULL,
	PRIMARY KEY(`kind`, `value`)
);
