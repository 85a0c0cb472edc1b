CREATE TABLE `deliveries` (
	`id` integer PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`submission_id` integer,
	`reply_id` integer,
	`update_id` integer,
	`subscriber_id` integer,
	`phone_id` integer,
	`state` text DEFAULT 'queued' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer NOT NULL,
	`failing_since` integer,
	`created_at` integer NOT NULL,
	`sent_at` integer,
	`sent_in` text,
	`receipt_key` text,
	`last_error` text,
	`dismissed_at` integer,
	FOREIGN KEY (`submission_id`) REFERENCES `submissions`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`reply_id`) REFERENCES `replies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`update_id`) REFERENCES `updates`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`subscriber_id`) REFERENCES `subscribers`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`phone_id`) REFERENCES `push_subscriptions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `deliveries_due` ON `deliveries` (`kind`,`next_attempt_at`) WHERE "deliveries"."state" IN ('queued', 'retrying');--> statement-breakpoint
CREATE INDEX `deliveries_sent` ON `deliveries` (`kind`,`sent_at`) WHERE "deliveries"."sent_at" is not null;--> statement-breakpoint
CREATE INDEX `deliveries_by_submission` ON `deliveries` (`submission_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `deliveries_by_reply` ON `deliveries` (`reply_id`) WHERE "deliveries"."reply_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX `deliveries_by_update` ON `deliveries` (`update_id`,`subscriber_id`) WHERE "deliveries"."update_id" is not null;--> statement-breakpoint
CREATE INDEX `deliveries_update_report` ON `deliveries` (`update_id`,`state`,`attempts`) WHERE "deliveries"."update_id" is not null;--> statement-breakpoint
CREATE INDEX `deliveries_by_subscriber` ON `deliveries` (`subscriber_id`) WHERE "deliveries"."subscriber_id" is not null;--> statement-breakpoint
CREATE INDEX `deliveries_by_phone` ON `deliveries` (`phone_id`,`sent_at`) WHERE "deliveries"."phone_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX `deliveries_receipt_key` ON `deliveries` (`receipt_key`) WHERE "deliveries"."receipt_key" is not null;--> statement-breakpoint
-- Every item of the five queues it replaces, in every state, in one vocabulary: waiting is
-- `queued` until tried and `retrying` after; a failure whose words say it was given up is `gave-up`;
-- a push told as part of a burst is `sent` in a burst. The day before giving up counts from the
-- first failure without a break (an update mail's own clock already; the others' from when queued).
INSERT INTO `deliveries` (kind, submission_id, state, attempts, next_attempt_at, failing_since, created_at, sent_at, sent_in, last_error)
	SELECT 'owner-mail', submission_id,
		CASE status WHEN 'pending' THEN CASE WHEN attempts > 0 THEN 'retrying' ELSE 'queued' END WHEN 'sent' THEN 'sent'
			ELSE CASE WHEN last_error LIKE 'Gave up after a day%' THEN 'gave-up' ELSE 'failed' END END,
		attempts, next_attempt_at, CASE WHEN attempts > 0 THEN created_at END, created_at, sent_at,
		-- A digest was named by its first outbox row's id; new ones by a delivery's, which could be the same number.
		CASE WHEN mail_key LIKE 'digest-%' THEN 'digest-outbox-' || substr(mail_key, 8) ELSE mail_key END, last_error
	FROM `outbox` ORDER BY id;--> statement-breakpoint
INSERT INTO `deliveries` (kind, submission_id, reply_id, state, attempts, next_attempt_at, failing_since, created_at, sent_at, last_error, dismissed_at)
	SELECT 'visitor-mail', submission_id, id,
		CASE status WHEN 'queued' THEN CASE WHEN attempts > 0 THEN 'retrying' ELSE 'queued' END WHEN 'sent' THEN 'sent'
			ELSE CASE WHEN last_error LIKE 'Gave up after a day%' THEN 'gave-up' ELSE 'failed' END END,
		attempts, next_attempt_at, CASE WHEN attempts > 0 AND status = 'queued' THEN queued_at END, queued_at, sent_at,
		last_error, dismissed_at
	FROM `replies` ORDER BY id;--> statement-breakpoint
INSERT INTO `deliveries` (kind, update_id, subscriber_id, state, attempts, next_attempt_at, failing_since, created_at, sent_at, last_error)
	SELECT 'update-mail', m.update_id, m.subscriber_id,
		CASE m.status WHEN 'queued' THEN CASE WHEN m.attempts > 0 THEN 'retrying' ELSE 'queued' END WHEN 'sent' THEN 'sent'
			WHEN 'skipped' THEN 'skipped'
			ELSE CASE WHEN m.last_error LIKE 'Gave up after a day%' THEN 'gave-up' ELSE 'failed' END END,
		m.attempts, m.next_attempt_at, m.failing_since, u.created_at, m.sent_at, m.last_error
	FROM `update_mails` m JOIN `updates` u ON u.id = m.update_id ORDER BY m.id;--> statement-breakpoint
INSERT INTO `deliveries` (kind, submission_id, state, attempts, next_attempt_at, failing_since, created_at, sent_at, receipt_key, last_error)
	SELECT 'webhook-post', submission_id,
		CASE status WHEN 'pending' THEN CASE WHEN attempts > 0 THEN 'retrying' ELSE 'queued' END WHEN 'sent' THEN 'sent'
			ELSE CASE WHEN last_error LIKE 'Gave up after a day%' THEN 'gave-up' ELSE 'failed' END END,
		attempts, next_attempt_at, CASE WHEN attempts > 0 THEN created_at END, created_at, sent_at, message_id, last_error
	FROM `webhook_deliveries` ORDER BY id;--> statement-breakpoint
INSERT INTO `deliveries` (kind, submission_id, phone_id, state, attempts, next_attempt_at, failing_since, created_at, sent_at, sent_in, last_error)
	SELECT 'push', submission_id, subscription_id,
		CASE status WHEN 'pending' THEN CASE WHEN attempts > 0 THEN 'retrying' ELSE 'queued' END WHEN 'sent' THEN 'sent'
			WHEN 'collapsed' THEN 'sent'
			ELSE CASE WHEN last_error LIKE 'Gave up after a day%' THEN 'gave-up' ELSE 'failed' END END,
		attempts, next_attempt_at, CASE WHEN attempts > 0 THEN created_at END, created_at, sent_at,
		CASE WHEN status = 'collapsed' THEN 'burst' END, last_error
	FROM `push_messages` ORDER BY id;--> statement-breakpoint
-- The header's count of failed mails to visitors that wait for the owner now follows their deliveries.
DROP TRIGGER `delivery_count_change`;--> statement-breakpoint
DROP TRIGGER `delivery_count_delete`;--> statement-breakpoint
CREATE TRIGGER `delivery_count_change` AFTER UPDATE OF state, dismissed_at ON `deliveries`
	WHEN new.kind = 'visitor-mail' AND (old.state IN ('failed', 'gave-up') AND old.dismissed_at IS NULL) <> (new.state IN ('failed', 'gave-up') AND new.dismissed_at IS NULL) BEGIN
	INSERT INTO `tag_counts` (kind, value, count)
		VALUES ('delivery', 'failed', CASE WHEN new.state IN ('failed', 'gave-up') AND new.dismissed_at IS NULL THEN 1 ELSE -1 END)
		ON CONFLICT (kind, value) DO UPDATE SET count = count + excluded.count;
END;--> statement-breakpoint
CREATE TRIGGER `delivery_count_delete` BEFORE DELETE ON `deliveries`
	WHEN old.kind = 'visitor-mail' AND old.state IN ('failed', 'gave-up') AND old.dismissed_at IS NULL BEGIN
	UPDATE `tag_counts` SET count = count - 1 WHERE kind = 'delivery' AND value = 'failed';
END;--> statement-breakpoint
DROP TABLE `outbox`;--> statement-breakpoint
DROP TABLE `push_messages`;--> statement-breakpoint
DROP TABLE `update_mails`;--> statement-breakpoint
DROP TABLE `webhook_deliveries`;--> statement-breakpoint
DROP INDEX `replies_due`;--> statement-breakpoint
ALTER TABLE `replies` DROP COLUMN `status`;--> statement-breakpoint
ALTER TABLE `replies` DROP COLUMN `attempts`;--> statement-breakpoint
ALTER TABLE `replies` DROP COLUMN `queued_at`;--> statement-breakpoint
ALTER TABLE `replies` DROP COLUMN `next_attempt_at`;--> statement-breakpoint
ALTER TABLE `replies` DROP COLUMN `sent_at`;--> statement-breakpoint
ALTER TABLE `replies` DROP COLUMN `last_error`;--> statement-breakpoint
ALTER TABLE `replies` DROP COLUMN `dismissed_at`;