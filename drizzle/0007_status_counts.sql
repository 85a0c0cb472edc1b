-- The inbox's count of each status ('new' is what the owner has still to deal with), kept in
-- tag_counts by triggers so the count is one read however large the inbox. A single UPDATE
-- changes either the status or the spam mark, as the app does, never both.
CREATE TRIGGER `status_count_insert` AFTER INSERT ON `submissions` WHEN new.spam_reasons IS NULL BEGIN
	INSERT INTO `tag_counts` (kind, value, count) VALUES ('status', new.status, 1)
		ON CONFLICT (kind, value) DO UPDATE SET count = count + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `status_count_change` AFTER UPDATE OF status ON `submissions`
	WHEN old.status <> new.status AND new.spam_reasons IS NULL BEGIN
	UPDATE `tag_counts` SET count = count - 1 WHERE kind = 'status' AND value = old.status;
	INSERT INTO `tag_counts` (kind, value, count) VALUES ('status', new.status, 1)
		ON CONFLICT (kind, value) DO UPDATE SET count = count + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `status_count_spam_change` AFTER UPDATE OF spam_reasons ON `submissions`
	WHEN (old.spam_reasons IS NULL) <> (new.spam_reasons IS NULL) BEGIN
	INSERT INTO `tag_counts` (kind, value, count)
		VALUES ('status', new.status, CASE WHEN new.spam_reasons IS NULL THEN 1 ELSE -1 END)
		ON CONFLICT (kind, value) DO UPDATE SET count = count + excluded.count;
END;
--> statement-breakpoint
CREATE TRIGGER `status_count_delete` BEFORE DELETE ON `submissions` WHEN old.spam_reasons IS NULL BEGIN
	UPDATE `tag_counts` SET count = count - 1 WHERE kind = 'status' AND value = old.status;
END;
--> statement-breakpoint
INSERT INTO `tag_counts` (kind, value, count)
	SELECT 'status', status, count(*) FROM `submissions` WHERE spam_reasons IS NULL GROUP BY status;
