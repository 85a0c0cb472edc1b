CREATE TABLE `farm_weeks` (
	`week` integer PRIMARY KEY NOT NULL
);
--> statement-breakpoint
CREATE TABLE `farm_weeks_made` (
	`id` integer PRIMARY KEY NOT NULL,
	`zone` text NOT NULL,
	`tzdata` text NOT NULL
);
--> statement-breakpoint
-- The farm's clock (decision 037): a week starts on Monday, 00:00 on the farm's clock
-- (FARM_TIME_ZONE), which is no whole number of weeks from the epoch once the clocks change. Its
-- Mondays are kept in farm_weeks, and every trigger that counts by week looks a moment's week up
-- there: the last Monday at or before it, one step down an integer key. Made here for UTC, the
-- site's clock until a zone is chosen, so the counts 0024 kept stand as they are; the site makes
-- them anew for another zone at start (app/insights/farm-weeks.server.ts).
INSERT INTO `farm_weeks` (week)
	WITH RECURSIVE mondays(week) AS (SELECT -259200000 UNION ALL SELECT week + 604800000 FROM mondays WHERE week + 604800000 < 7258118400000)
	SELECT week FROM mondays;
--> statement-breakpoint
INSERT INTO `farm_weeks_made` (id, zone, tzdata) VALUES (1, 'UTC', '');
--> statement-breakpoint
DROP TRIGGER `lead_weeks_insert`;
--> statement-breakpoint
CREATE TRIGGER `lead_weeks_insert` AFTER INSERT ON `submissions` BEGIN
	INSERT OR IGNORE INTO `lead_weeks` (week, first_id) VALUES ((SELECT max(week) FROM farm_weeks WHERE week <= new.created_at), new.id);
END;
--> statement-breakpoint
DROP TRIGGER `weekly_leads_insert`;
--> statement-breakpoint
CREATE TRIGGER `weekly_leads_insert` AFTER INSERT ON `submissions` WHEN new.spam_reasons IS NULL BEGIN
	INSERT INTO `weekly_leads` (week, kind, value, count)
		SELECT (SELECT max(week) FROM farm_weeks WHERE week <= new.created_at), 'intent', CASE WHEN new.analysis IS NULL THEN 'unread' ELSE coalesce(json_extract(new.analysis, '$.intents[0]'), 'other') END, 1
		UNION ALL SELECT DISTINCT (SELECT max(week) FROM farm_weeks WHERE week <= new.created_at), 'product', value, 1 FROM json_each(new.analysis, '$.products') WHERE true
		ON CONFLICT (week, kind, value) DO UPDATE SET count = count + excluded.count;
END;
--> statement-breakpoint
DROP TRIGGER `weekly_leads_reanalysed`;
--> statement-breakpoint
CREATE TRIGGER `weekly_leads_reanalysed` AFTER UPDATE OF analysis ON `submissions`
	WHEN old.spam_reasons IS NULL AND new.spam_reasons IS NULL AND old.analysis IS NOT new.analysis BEGIN
	INSERT INTO `weekly_leads` (week, kind, value, count)
		SELECT (SELECT max(week) FROM farm_weeks WHERE week <= old.created_at), 'intent', CASE WHEN old.analysis IS NULL THEN 'unread' ELSE coalesce(json_extract(old.analysis, '$.intents[0]'), 'other') END, -1
		UNION ALL SELECT DISTINCT (SELECT max(week) FROM farm_weeks WHERE week <= old.created_at), 'product', value, -1 FROM json_each(old.analysis, '$.products') WHERE true
		ON CONFLICT (week, kind, value) DO UPDATE SET count = count + excluded.count;
	INSERT INTO `weekly_leads` (week, kind, value, count)
		SELECT (SELECT max(week) FROM farm_weeks WHERE week <= new.created_at), 'intent', CASE WHEN new.analysis IS NULL THEN 'unread' ELSE coalesce(json_extract(new.analysis, '$.intents[0]'), 'other') END, 1
		UNION ALL SELECT DISTINCT (SELECT max(week) FROM farm_weeks WHERE week <= new.created_at), 'product', value, 1 FROM json_each(new.analysis, '$.products') WHERE true
		ON CONFLICT (week, kind, value) DO UPDATE SET count = count + excluded.count;
END;
--> statement-breakpoint
DROP TRIGGER `weekly_leads_to_spam`;
--> statement-breakpoint
CREATE TRIGGER `weekly_leads_to_spam` AFTER UPDATE OF spam_reasons ON `submissions`
	WHEN old.spam_reasons IS NULL AND new.spam_reasons IS NOT NULL BEGIN
	INSERT INTO `weekly_leads` (week, kind, value, count)
		SELECT (SELECT max(week) FROM farm_weeks WHERE week <= old.created_at), 'intent', CASE WHEN old.analysis IS NULL THEN 'unread' ELSE coalesce(json_extract(old.analysis, '$.intents[0]'), 'other') END, -1
		UNION ALL SELECT DISTINCT (SELECT max(week) FROM farm_weeks WHERE week <= old.created_at), 'product', value, -1 FROM json_each(old.analysis, '$.products') WHERE true
		ON CONFLICT (week, kind, value) DO UPDATE SET count = count + excluded.count;
	DELETE FROM `first_replies` WHERE submission_id = new.id;
END;
--> statement-breakpoint
DROP TRIGGER `weekly_leads_from_spam`;
--> statement-breakpoint
CREATE TRIGGER `weekly_leads_from_spam` AFTER UPDATE OF spam_reasons ON `submissions`
	WHEN old.spam_reasons IS NOT NULL AND new.spam_reasons IS NULL BEGIN
	INSERT INTO `weekly_leads` (week, kind, value, count)
		SELECT (SELECT max(week) FROM farm_weeks WHERE week <= new.created_at), 'intent', CASE WHEN new.analysis IS NULL THEN 'unread' ELSE coalesce(json_extract(new.analysis, '$.intents[0]'), 'other') END, 1
		UNION ALL SELECT DISTINCT (SELECT max(week) FROM farm_weeks WHERE week <= new.created_at), 'product', value, 1 FROM json_each(new.analysis, '$.products') WHERE true
		ON CONFLICT (week, kind, value) DO UPDATE SET count = count + excluded.count;
	INSERT OR IGNORE INTO `first_replies` (submission_id, week, waited_ms)
		SELECT new.id, (SELECT max(week) FROM farm_weeks WHERE week <= new.created_at), max(0, min(r.created_at) - new.created_at)
		FROM `replies` r WHERE r.submission_id = new.id AND r.kind = 'reply' HAVING count(*) > 0;
END;
--> statement-breakpoint
DROP TRIGGER `weekly_leads_delete`;
--> statement-breakpoint
CREATE TRIGGER `weekly_leads_delete` BEFORE DELETE ON `submissions` WHEN old.spam_reasons IS NULL BEGIN
	INSERT INTO `weekly_leads` (week, kind, value, count)
		SELECT (SELECT max(week) FROM farm_weeks WHERE week <= old.created_at), 'intent', CASE WHEN old.analysis IS NULL THEN 'unread' ELSE coalesce(json_extract(old.analysis, '$.intents[0]'), 'other') END, -1
		UNION ALL SELECT DISTINCT (SELECT max(week) FROM farm_weeks WHERE week <= old.created_at), 'product', value, -1 FROM json_each(old.analysis, '$.products') WHERE true
		ON CONFLICT (week, kind, value) DO UPDATE SET count = count + excluded.count;
END;
--> statement-breakpoint
DROP TRIGGER `first_replies_insert`;
--> statement-breakpoint
CREATE TRIGGER `first_replies_insert` AFTER INSERT ON `replies` WHEN new.kind = 'reply' BEGIN
	INSERT OR IGNORE INTO `first_replies` (submission_id, week, waited_ms)
		SELECT s.id, (SELECT max(week) FROM farm_weeks WHERE week <= s.created_at), max(0, new.created_at - s.created_at)
		FROM `submissions` s WHERE s.id = new.submission_id AND s.spam_reasons IS NULL;
END;
