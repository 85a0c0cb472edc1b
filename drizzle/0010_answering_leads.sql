CREATE TABLE `farm_texts` (
	`key` text PRIMARY KEY NOT NULL,
	`text` text NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `replies` (
	`id` integer PRIMARY KEY NOT NULL,
	`submission_id` integer NOT NULL,
	`kind` text NOT NULL,
	`to_address` text NOT NULL,
	`address_key` text NOT NULL,
	`text` text NOT NULL,
	`message_id` text NOT NULL,
	`references` text,
	`status` text DEFAULT 'queued' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`queued_at` integer NOT NULL,
	`next_attempt_at` integer NOT NULL,
	`created_at` integer NOT NULL,
	`sent_at` integer,
	`last_error` text,
	`dismissed_at` integer,
	`request_key` text,
	FOREIGN KEY (`submission_id`) REFERENCES `submissions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `replies_message_id` ON `replies` (`message_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `replies_request_key` ON `replies` (`request_key`);--> statement-breakpoint
CREATE INDEX `replies_by_submission` ON `replies` (`submission_id`,`id`);--> statement-breakpoint
CREATE INDEX `replies_due` ON `replies` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `replies_by_kind` ON `replies` (`kind`,`created_at`);--> statement-breakpoint
CREATE TABLE `saved_replies` (
	`id` integer PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`name_key` text NOT NULL,
	`text` text NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `saved_replies_name` ON `saved_replies` (`name_key`);
--> statement-breakpoint
-- How many mails to visitors failed and still wait for the owner (neither retried nor
-- dismissed): the header's badge, kept in tag_counts so it is one read. A mail is queued
-- when inserted, so only updates and deletes move it.
CREATE TRIGGER `delivery_count_change` AFTER UPDATE OF status, dismissed_at ON `replies`
	WHEN (old.status = 'failed' AND old.dismissed_at IS NULL) <> (new.status = 'failed' AND new.dismissed_at IS NULL) BEGIN
	INSERT INTO `tag_counts` (kind, value, count)
		VALUES ('delivery', 'failed', CASE WHEN new.status = 'failed' AND new.dismissed_at IS NULL THEN 1 ELSE -1 END)
		ON CONFLICT (kind, value) DO UPDATE SET count = count + excluded.count;
END;
--> statement-breakpoint
CREATE TRIGGER `delivery_count_delete` BEFORE DELETE ON `replies`
	WHEN old.status = 'failed' AND old.dismissed_at IS NULL BEGIN
	UPDATE `tag_counts` SET count = count - 1 WHERE kind = 'delivery' AND value = 'failed';
END;
