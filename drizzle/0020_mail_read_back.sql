CREATE TABLE `mail_suppressions` (
	`address_key` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`returned_mail_id` integer,
	`since` integer NOT NULL,
	FOREIGN KEY (`returned_mail_id`) REFERENCES `returned_mails`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE TABLE `mailbox_marks` (
	`mailbox` text PRIMARY KEY NOT NULL,
	`uid_validity` integer NOT NULL,
	`last_uid` integer NOT NULL,
	`changed_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `returned_mails` (
	`id` integer PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`delivery_id` integer,
	`update_id` integer,
	`address` text NOT NULL,
	`address_key` text NOT NULL,
	`permanent` integer NOT NULL,
	`status` text,
	`words` text,
	`source` text NOT NULL,
	`received_at` integer NOT NULL,
	FOREIGN KEY (`delivery_id`) REFERENCES `deliveries`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`update_id`) REFERENCES `updates`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `returned_mails_by_address` ON `returned_mails` (`address_key`,`received_at`);--> statement-breakpoint
CREATE INDEX `returned_mails_by_time` ON `returned_mails` (`kind`,`received_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `returned_mails_by_delivery` ON `returned_mails` (`delivery_id`,`kind`) WHERE "returned_mails"."delivery_id" is not null;--> statement-breakpoint
CREATE INDEX `returned_mails_by_update` ON `returned_mails` (`update_id`,`kind`) WHERE "returned_mails"."update_id" is not null;--> statement-breakpoint
DROP INDEX `deliveries_by_reply`;--> statement-breakpoint
CREATE INDEX `deliveries_about_reply` ON `deliveries` (`reply_id`) WHERE "deliveries"."reply_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX `deliveries_by_reply` ON `deliveries` (`reply_id`) WHERE "deliveries"."reply_id" IS NOT NULL AND "deliveries"."kind" = 'visitor-mail';--> statement-breakpoint
ALTER TABLE `replies` ADD `attachments` text;--> statement-breakpoint
CREATE INDEX `replies_answers_by_address` ON `replies` (`address_key`) WHERE "replies"."kind" IN ('answer', 'automatic-answer');--> statement-breakpoint
ALTER TABLE `submissions` ADD `answers_update` integer REFERENCES updates(id) ON DELETE set null;--> statement-breakpoint
ALTER TABLE `submissions` ADD `mail_id` text;--> statement-breakpoint
CREATE UNIQUE INDEX `submissions_mail_id` ON `submissions` (`mail_id`) WHERE "submissions"."mail_id" is not null;--> statement-breakpoint
-- A mail to a visitor that bounced waits for the owner as a failed one does: the header counts it.
DROP TRIGGER `delivery_count_change`;--> statement-breakpoint
DROP TRIGGER `delivery_count_delete`;--> statement-breakpoint
CREATE TRIGGER `delivery_count_change` AFTER UPDATE OF state, dismissed_at ON `deliveries`
	WHEN new.kind = 'visitor-mail' AND (old.state IN ('failed', 'gave-up', 'bounced') AND old.dismissed_at IS NULL) <> (new.state IN ('failed', 'gave-up', 'bounced') AND new.dismissed_at IS NULL) BEGIN
	INSERT INTO `tag_counts` (kind, value, count)
		VALUES ('delivery', 'failed', CASE WHEN new.state IN ('failed', 'gave-up', 'bounced') AND new.dismissed_at IS NULL THEN 1 ELSE -1 END)
		ON CONFLICT (kind, value) DO UPDATE SET count = count + excluded.count;
END;--> statement-breakpoint
CREATE TRIGGER `delivery_count_delete` BEFORE DELETE ON `deliveries`
	WHEN old.kind = 'visitor-mail' AND old.state IN ('failed', 'gave-up', 'bounced') AND old.dismissed_at IS NULL BEGIN
	UPDATE `tag_counts` SET count = count - 1 WHERE kind = 'delivery' AND value = 'failed';
END;
