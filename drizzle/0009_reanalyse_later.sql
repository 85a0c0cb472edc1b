ALTER TABLE `submissions` ADD `reanalyse_at` integer;--> statement-breakpoint
ALTER TABLE `submissions` ADD `analysis_attempts` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `submissions_to_reanalyse` ON `submissions` (`reanalyse_at`) WHERE "submissions"."reanalyse_at" is not null;--> statement-breakpoint
-- A message read again later gets its tags (and, kept, their counts) once it has an analysis.
CREATE TRIGGER `submission_tags_reanalysed` AFTER UPDATE OF analysis ON `submissions`
	WHEN old.analysis IS NULL AND new.analysis IS NOT NULL BEGIN
	INSERT OR IGNORE INTO `submission_tags` (kind, value, submission_id)
		SELECT 'intent', value, new.id FROM json_each(new.analysis, '$.intents')
		UNION ALL SELECT 'product', value, new.id FROM json_each(new.analysis, '$.products')
		UNION ALL SELECT 'urgency', value, new.id FROM json_each(new.analysis, '$.urgency') WHERE key = 'level';
	INSERT INTO `tag_counts` (kind, value, count)
		SELECT kind, value, 1 FROM `submission_tags` WHERE submission_id = new.id AND new.spam_reasons IS NULL
		ON CONFLICT (kind, value) DO UPDATE SET count = count + 1;
END;
