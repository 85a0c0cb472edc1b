CREATE TABLE `erasures` (
	`address_hash` text PRIMARY KEY NOT NULL,
	`mailbox_hash` text NOT NULL,
	`erased_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `highest_ids` (
	`table_name` text PRIMARY KEY NOT NULL,
	`id` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `submissions_handled_by_age` ON `submissions` (`created_at`) WHERE "submissions"."status" = 'handled' AND "submissions"."spam_reasons" IS NULL;--> statement-breakpoint
-- A deleted submission's words are taken out of the search index's own segments, not only
-- marked deleted there; the rebuild drops what earlier deletes (old spam) left behind.
-- The rest of the file's free space is cleaned once after the migrations (database.server.ts).
INSERT INTO `submissions_search` (`submissions_search`, rank) VALUES ('secure-delete', 1);
--> statement-breakpoint
INSERT INTO `submissions_search` (`submissions_search`) VALUES ('rebuild');
--> statement-breakpoint
-- A deleted id is never given again (see highest_ids in schema.ts): the highest one so far is
-- kept as rows are deleted, and new submissions are numbered above it.
INSERT INTO `highest_ids` (table_name, id) SELECT 'submissions', coalesce(max(id), 0) FROM `submissions`;
--> statement-breakpoint
CREATE TRIGGER `submissions_keep_highest_id` AFTER DELETE ON `submissions` BEGIN
	UPDATE `highest_ids` SET id = max(id, old.id) WHERE table_name = 'submissions';
END;
