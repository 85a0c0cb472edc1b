CREATE TABLE `push_messages` (
	`id` integer PRIMARY KEY NOT NULL,
	`subscription_id` integer NOT NULL,
	`submission_id` integer NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer NOT NULL,
	`created_at` integer NOT NULL,
	`sent_at` integer,
	`last_error` text,
	FOREIGN KEY (`subscription_id`) REFERENCES `push_subscriptions`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`submission_id`) REFERENCES `submissions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `push_messages_due` ON `push_messages` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `push_messages_recent` ON `push_messages` (`subscription_id`,`status`,`sent_at`);--> statement-breakpoint
CREATE INDEX `push_messages_by_submission` ON `push_messages` (`submission_id`);--> statement-breakpoint
CREATE TABLE `push_subscriptions` (
	`id` integer PRIMARY KEY NOT NULL,
	`endpoint` text NOT NULL,
	`p256dh` text NOT NULL,
	`auth` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `push_subscriptions_endpoint` ON `push_subscriptions` (`endpoint`);