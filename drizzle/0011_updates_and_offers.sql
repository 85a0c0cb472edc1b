CREATE TABLE `signing_keys` (
	`name` text PRIMARY KEY NOT NULL,
	`key` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `subscribers` (
	`id` integer PRIMARY KEY NOT NULL,
	`email` text NOT NULL,
	`address_key` text NOT NULL,
	`name` text NOT NULL,
	`status` text NOT NULL,
	`consent` text,
	`added_by` text NOT NULL,
	`asked_at` integer,
	`subscribed_at` integer,
	`unsubscribed_at` integer,
	`unsubscribed_by` text,
	`last_error` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `subscribers_address` ON `subscribers` (`address_key`);--> statement-breakpoint
CREATE INDEX `subscribers_by_status` ON `subscribers` (`status`,`id`);--> statement-breakpoint
CREATE TABLE `update_mails` (
	`id` integer PRIMARY KEY NOT NULL,
	`update_id` integer NOT NULL,
	`subscriber_id` integer NOT NULL,
	`status` text DEFAULT 'queued' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer NOT NULL,
	`sent_at` integer,
	`failing_since` integer,
	`last_error` text,
	FOREIGN KEY (`update_id`) REFERENCES `updates`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`subscriber_id`) REFERENCES `subscribers`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `update_mails_once` ON `update_mails` (`update_id`,`subscriber_id`);--> statement-breakpoint
CREATE INDEX `update_mails_due` ON `update_mails` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `update_mails_by_subscriber` ON `update_mails` (`subscriber_id`);--> statement-breakpoint
CREATE INDEX `update_mails_report` ON `update_mails` (`update_id`,`status`,`attempts`);--> statement-breakpoint
CREATE TABLE `updates` (
	`id` integer PRIMARY KEY NOT NULL,
	`subject` text NOT NULL,
	`text` text NOT NULL,
	`products` text NOT NULL,
	`intents` text NOT NULL,
	`recipients` integer NOT NULL,
	`request_key` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `updates_request_key` ON `updates` (`request_key`);--> statement-breakpoint
ALTER TABLE `replies` ADD `subscriber_id` integer REFERENCES subscribers(id) ON DELETE set null;--> statement-breakpoint
CREATE INDEX `submissions_by_email` ON `submissions` (lower("email"));