CREATE TABLE `erasures` (
	`address_hash` text PRIMARY KEY NOT NULL,
	`erased_at` integer NOT NULL
);
--> statement-breakpoint
-- A deleted submission's words are taken out of the search index's own segments, not only
-- marked deleted there; the rebuild drops what earlier deletes (old spam) left behind.
-- The rest of the file's free space is cleaned once after the migrations (database.server.ts).
INSERT INTO `submissions_search` (`submissions_search`, rank) VALUES ('secure-delete', 1);
--> statement-breakpoint
INSERT INTO `submissions_search` (`submissions_search`) VALUES ('rebuild');
