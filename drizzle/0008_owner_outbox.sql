CREATE TABLE `outbox` (
	`id` integer PRIMARY KEY NOT NULL,
	`submission_id` integer NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer NOT NULL,
	`created_at` integer NOT NULL,
	`sent_at` integer,
	`mail_key` text,
	`last_error` text,
	FOREIGN KEY (`submission_id`) REFERENCES `submissions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `outbox_due` ON `outbox` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `outbox_sent` ON `outbox` (`sent_at`);--> statement-breakpoint
CREATE INDEX `outbox_by_submission` ON `outbox` (`submission_id`);