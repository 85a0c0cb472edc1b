-- The insights' figures (decision 031). Weeks start on Monday, 00:00 UTC (1970-01-05 is the first
-- Monday after the epoch, 345,600,000 ms in; the remainder is made positive, as SQLite's % keeps
-- the sign, so a week is the Monday before for any moment), and a lead counts in the week it came. Spam never
-- counts: a lead is counted while it is in the inbox, and uncounted when it leaves it.
CREATE TABLE `first_replies` (
	`submission_id` integer PRIMARY KEY NOT NULL,
	`week` integer NOT NULL,
	`waited_ms` integer NOT NULL,
	FOREIGN KEY (`submission_id`) REFERENCES `submissions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `first_replies_by_week` ON `first_replies` (`week`,`waited_ms`);--> statement-breakpoint
CREATE TABLE `lead_weeks` (
	`week` integer PRIMARY KEY NOT NULL,
	`first_id` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `weekly_leads` (
	`week` integer NOT NULL,
	`kind` text NOT NULL,
	`value` text NOT NULL,
	`count` integer NOT NULL,
	PRIMARY KEY(`week`, `kind`, `value`)
);
--> statement-breakpoint
CREATE INDEX `submissions_waiting_by_age` ON `submissions` (`created_at`) WHERE "submissions"."status" = 'new' AND "submissions"."spam_reasons" IS NULL;--> statement-breakpoint
CREATE INDEX `subscribers_by_joining` ON `subscribers` (`subscribed_at`) WHERE "subscribers"."subscribed_at" is not null;--> statement-breakpoint
CREATE INDEX `subscribers_by_leaving` ON `subscribers` (`status`,`unsubscribed_at`) WHERE "subscribers"."unsubscribed_at" is not null;
--> statement-breakpoint
CREATE TRIGGER `lead_weeks_insert` AFTER INSERT ON `submissions` BEGIN
	INSERT OR IGNORE INTO `lead_weeks` (week, first_id) VALUES (new.created_at - ((new.created_at - 345600000) % 604800000 + 604800000) % 604800000, new.id);
END;
--> statement-breakpoint
CREATE TRIGGER `weekly_leads_insert` AFTER INSERT ON `submissions` WHEN new.spam_reasons IS NULL BEGIN
	INSERT INTO `weekly_leads` (week, kind, value, count)
		SELECT new.created_at - ((new.created_at - 345600000) % 604800000 + 604800000) % 604800000, 'intent', CASE WHEN new.analysis IS NULL THEN 'unread' ELSE coalesce(json_extract(new.analysis, '$.intents[0]'), 'other') END, 1
		UNION ALL SELECT DISTINCT new.created_at - ((new.created_at - 345600000) % 604800000 + 604800000) % 604800000, 'product', value, 1 FROM json_each(new.analysis, '$.products') WHERE true
		ON CONFLICT (week, kind, value) DO UPDATE SET count = count + excluded.count;
END;
--> statement-breakpoint
CREATE TRIGGER `weekly_leads_reanalysed` AFTER UPDATE OF analysis ON `submissions`
	WHEN old.spam_reasons IS NULL AND new.spam_reasons IS NULL AND old.analysis IS NOT new.analysis BEGIN
	INSERT INTO `weekly_leads` (week, kind, value, count)
		SELECT old.created_at - ((old.created_at - 345600000) % 604800000 + 604800000) % 604800000, 'intent', CASE WHEN old.analysis IS NULL THEN 'unread' ELSE coalesce(json_extract(old.analysis, '$.intents[0]'), 'other') END, -1
		UNION ALL SELECT DISTINCT old.created_at - ((old.created_at - 345600000) % 604800000 + 604800000) % 604800000, 'product', value, -1 FROM json_each(old.analysis, '$.products') WHERE true
		ON CONFLICT (week, kind, value) DO UPDATE SET count = count + excluded.count;
	INSERT INTO `weekly_leads` (week, kind, value, count)
		SELECT new.created_at - ((new.created_at - 345600000) % 604800000 + 604800000) % 604800000, 'intent', CASE WHEN new.analysis IS NULL THEN 'unread' ELSE coalesce(json_extract(new.analysis, '$.intents[0]'), 'other') END, 1
		UNION ALL SELECT DISTINCT new.created_at - ((new.created_at - 345600000) % 604800000 + 604800000) % 604800000, 'product', value, 1 FROM json_each(new.analysis, '$.products') WHERE true
		ON CONFLICT (week, kind, value) DO UPDATE SET count = count + excluded.count;
END;
--> statement-breakpoint
CREATE TRIGGER `weekly_leads_to_spam` AFTER UPDATE OF spam_reasons ON `submissions`
	WHEN old.spam_reasons IS NULL AND new.spam_reasons IS NOT NULL BEGIN
	INSERT INTO `weekly_leads` (week, kind, value, count)
		SELECT old.created_at - ((old.created_at - 345600000) % 604800000 + 604800000) % 604800000, 'intent', CASE WHEN old.analysis IS NULL THEN 'unread' ELSE coalesce(json_extract(old.analysis, '$.intents[0]'), 'other') END, -1
		UNION ALL SELECT DISTINCT old.created_at - ((old.created_at - 345600000) % 604800000 + 604800000) % 604800000, 'product', value, -1 FROM json_each(old.analysis, '$.products') WHERE true
		ON CONFLICT (week, kind, value) DO UPDATE SET count = count + excluded.count;
	DELETE FROM `first_replies` WHERE submission_id = new.id;
END;
--> statement-breakpoint
CREATE TRIGGER `weekly_leads_from_spam` AFTER UPDATE OF spam_reasons ON `submissions`
	WHEN old.spam_reasons IS NOT NULL AND new.spam_reasons IS NULL BEGIN
	INSERT INTO `weekly_leads` (week, kind, value, count)
		SELECT new.created_at - ((new.created_at - 345600000) % 604800000 + 604800000) % 604800000, 'intent', CASE WHEN new.analysis IS NULL THEN 'unread' ELSE coalesce(json_extract(new.analysis, '$.intents[0]'), 'other') END, 1
		UNION ALL SELECT DISTINCT new.created_at - ((new.created_at - 345600000) % 604800000 + 604800000) % 604800000, 'product', value, 1 FROM json_each(new.analysis, '$.products') WHERE true
		ON CONFLICT (week, kind, value) DO UPDATE SET count = count + excluded.count;
	INSERT OR IGNORE INTO `first_replies` (submission_id, week, waited_ms)
		SELECT new.id, new.created_at - ((new.created_at - 345600000) % 604800000 + 604800000) % 604800000, max(0, min(r.created_at) - new.created_at)
		FROM `replies` r WHERE r.submission_id = new.id AND r.kind = 'reply' HAVING count(*) > 0;
END;
--> statement-breakpoint
CREATE TRIGGER `weekly_leads_delete` BEFORE DELETE ON `submissions` WHEN old.spam_reasons IS NULL BEGIN
	INSERT INTO `weekly_leads` (week, kind, value, count)
		SELECT old.created_at - ((old.created_at - 345600000) % 604800000 + 604800000) % 604800000, 'intent', CASE WHEN old.analysis IS NULL THEN 'unread' ELSE coalesce(json_extract(old.analysis, '$.intents[0]'), 'other') END, -1
		UNION ALL SELECT DISTINCT old.created_at - ((old.created_at - 345600000) % 604800000 + 604800000) % 604800000, 'product', value, -1 FROM json_each(old.analysis, '$.products') WHERE true
		ON CONFLICT (week, kind, value) DO UPDATE SET count = count + excluded.count;
END;
--> statement-breakpoint
-- The team's first reply to an inbox lead: how long it waited (the acknowledgement is the site's, not an answer).
CREATE TRIGGER `first_replies_insert` AFTER INSERT ON `replies` WHEN new.kind = 'reply' BEGIN
	INSERT OR IGNORE INTO `first_replies` (submission_id, week, waited_ms)
		SELECT s.id, s.created_at - ((s.created_at - 345600000) % 604800000 + 604800000) % 604800000, max(0, new.created_at - s.created_at)
		FROM `submissions` s WHERE s.id = new.submission_id AND s.spam_reasons IS NULL;
END;
--> statement-breakpoint
-- How many of a week's leads are answered, kept beside its leads: the percentiles' ranks need it
-- (these count the rows filled in below too, and a lead's delete cascades through them).
CREATE TRIGGER `first_replies_count_insert` AFTER INSERT ON `first_replies` BEGIN
	INSERT INTO `weekly_leads` (week, kind, value, count) VALUES (new.week, 'answered', '', 1)
		ON CONFLICT (week, kind, value) DO UPDATE SET count = count + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `first_replies_count_delete` AFTER DELETE ON `first_replies` BEGIN
	UPDATE `weekly_leads` SET count = count - 1 WHERE week = old.week AND kind = 'answered' AND value = '';
END;
--> statement-breakpoint
INSERT INTO `weekly_leads` (week, kind, value, count)
	SELECT s.created_at - ((s.created_at - 345600000) % 604800000 + 604800000) % 604800000, 'intent', CASE WHEN s.analysis IS NULL THEN 'unread' ELSE coalesce(json_extract(s.analysis, '$.intents[0]'), 'other') END, count(*)
	FROM `submissions` s WHERE s.spam_reasons IS NULL GROUP BY 1, 3;
--> statement-breakpoint
INSERT INTO `weekly_leads` (week, kind, value, count)
	SELECT s.created_at - ((s.created_at - 345600000) % 604800000 + 604800000) % 604800000, 'product', p.value, count(DISTINCT s.id)
	FROM `submissions` s, json_each(s.analysis, '$.products') p WHERE s.spam_reasons IS NULL GROUP BY 1, 3;
--> statement-breakpoint
INSERT INTO `first_replies` (submission_id, week, waited_ms)
	SELECT s.id, s.created_at - ((s.created_at - 345600000) % 604800000 + 604800000) % 604800000, max(0, min(r.created_at) - s.created_at)
	FROM `replies` r JOIN `submissions` s ON s.id = r.submission_id
	WHERE r.kind = 'reply' AND s.spam_reasons IS NULL GROUP BY s.id;
--> statement-breakpoint
INSERT INTO `lead_weeks` (week, first_id)
	SELECT created_at - ((created_at - 345600000) % 604800000 + 604800000) % 604800000, min(id) FROM `submissions` GROUP BY 1;
