CREATE TABLE `unasked_mails` (
	`id` integer PRIMARY KEY NOT NULL,
	`sent_at` integer NOT NULL,
	`mailbox_hash` text NOT NULL,
	`sender_key` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `unasked_mails_by_mailbox` ON `unasked_mails` (`mailbox_hash`,`sent_at`);--> statement-breakpoint
CREATE INDEX `unasked_mails_by_sender` ON `unasked_mails` (`sender_key`,`sent_at`);--> statement-breakpoint
CREATE INDEX `unasked_mails_by_time` ON `unasked_mails` (`sent_at`);--> statement-breakpoint
DROP INDEX `replies_by_kind`;--> statement-breakpoint
ALTER TABLE `erasures` ADD `unsubscribed` integer DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX `erasures_by_mailbox` ON `erasures` (`mailbox_hash`);--> statement-breakpoint
ALTER TABLE `submissions` ADD `sender_key` text;