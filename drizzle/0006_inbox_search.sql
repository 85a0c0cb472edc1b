-- Search: an FTS5 index over name, email and message, reading the text from submissions
-- itself (external content) and kept in step by triggers. unicode61 folds case and accents
-- and splits on punctuation, so "example.com" is the tokens "example" "com".
CREATE VIRTUAL TABLE `submissions_search` USING fts5(
	name, email, message,
	content = 'submissions', content_rowid = 'id',
	tokenize = 'unicode61 remove_diacritics 2'
);
--> statement-breakpoint
INSERT INTO `submissions_search` (`submissions_search`) VALUES ('rebuild');
--> statement-breakpoint
CREATE TRIGGER `submissions_search_insert` AFTER INSERT ON `submissions` BEGIN
	INSERT INTO `submissions_search` (rowid, name, email, message) VALUES (new.id, new.name, new.email, new.message);
END;
--> statement-breakpoint
CREATE TRIGGER `submissions_search_delete` AFTER DELETE ON `submissions` BEGIN
	INSERT INTO `submissions_search` (`submissions_search`, rowid, name, email, message)
		VALUES ('delete', old.id, old.name, old.email, old.message);
END;
--> statement-breakpoint
CREATE TRIGGER `submissions_search_update` AFTER UPDATE OF name, email, message ON `submissions` BEGIN
	INSERT INTO `submissions_search` (`submissions_search`, rowid, name, email, message)
		VALUES ('delete', old.id, old.name, old.email, old.message);
	INSERT INTO `submissions_search` (rowid, name, email, message) VALUES (new.id, new.name, new.email, new.message);
END;
--> statement-breakpoint
-- Tags from the stored analysis, and the inbox's count of each (spam is not counted).
CREATE TRIGGER `submission_tags_insert` AFTER INSERT ON `submissions` BEGIN
	INSERT OR IGNORE INTO `submission_tags` (kind, value, submission_id)
		SELECT 'intent', value, new.id FROM json_each(new.analysis, '$.intents')
		UNION ALL SELECT 'product', value, new.id FROM json_each(new.analysis, '$.products')
		UNION ALL SELECT 'urgency', value, new.id FROM json_each(new.analysis, '$.urgency') WHERE key = 'level';
	INSERT INTO `tag_counts` (kind, value, count)
		SELECT kind, value, 1 FROM `submission_tags` WHERE submission_id = new.id AND new.spam_reasons IS NULL
		ON CONFLICT (kind, value) DO UPDATE SET count = count + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `submission_tags_uncount_deleted` BEFORE DELETE ON `submissions` WHEN old.spam_reasons IS NULL BEGIN
	UPDATE `tag_counts` SET count = count - 1
		WHERE (kind, value) IN (SELECT kind, value FROM `submission_tags` WHERE submission_id = old.id);
END;
--> statement-breakpoint
CREATE TRIGGER `submission_tags_count_spam_change` AFTER UPDATE OF spam_reasons ON `submissions`
	WHEN (old.spam_reasons IS NULL) <> (new.spam_reasons IS NULL) BEGIN
	INSERT INTO `tag_counts` (kind, value, count)
		SELECT kind, value, CASE WHEN new.spam_reasons IS NULL THEN 1 ELSE -1 END
		FROM `submission_tags` WHERE submission_id = new.id
		ON CONFLICT (kind, value) DO UPDATE SET count = count + excluded.count;
END;
--> statement-breakpoint
INSERT OR IGNORE INTO `submission_tags` (kind, value, submission_id)
	SELECT 'intent', j.value, s.id FROM `submissions` s, json_each(s.analysis, '$.intents') j
	UNION ALL SELECT 'product', j.value, s.id FROM `submissions` s, json_each(s.analysis, '$.products') j
	UNION ALL SELECT 'urgency', j.value, s.id FROM `submissions` s, json_each(s.analysis, '$.urgency') j WHERE j.key = 'level';
--> statement-breakpoint
INSERT INTO `tag_counts` (kind, value, count)
	SELECT t.kind, t.value, count(*) FROM `submission_tags` t JOIN `submissions` s ON s.id = t.submission_id
	WHERE s.spam_reasons IS NULL GROUP BY t.kind, t.value;
