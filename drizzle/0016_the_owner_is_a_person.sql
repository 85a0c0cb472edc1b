-- The owner is a person: the first of the farm's team. Whatever a person does that the site keeps
-- records their id; while OWNER_PASSWORD is the one way in, every session is theirs.
CREATE TABLE `team` (
	`id` integer PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`role` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
INSERT INTO `team` (id, name, role, created_at) VALUES (1, 'Owner', 'owner', CAST(strftime('%s', 'now') AS INTEGER) * 1000);
--> statement-breakpoint
ALTER TABLE `erasures` ADD `erased_by` integer REFERENCES team(id) ON DELETE set null;--> statement-breakpoint
ALTER TABLE `replies` ADD `sent_by` integer REFERENCES team(id) ON DELETE set null;--> statement-breakpoint
ALTER TABLE `submissions` ADD `status_changed_by` integer REFERENCES team(id) ON DELETE set null;--> statement-breakpoint
ALTER TABLE `updates` ADD `sent_by` integer REFERENCES team(id) ON DELETE set null;--> statement-breakpoint
-- A live session stays signed in, as the owner's.
CREATE TABLE `__new_sessions` (
	`id_hash` text PRIMARY KEY NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`revoked_at` integer,
	`member_id` integer NOT NULL,
	FOREIGN KEY (`member_id`) REFERENCES `team`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_sessions` (id_hash, created_at, expires_at, revoked_at, member_id)
	SELECT id_hash, created_at, expires_at, revoked_at, 1 FROM `sessions`;--> statement-breakpoint
DROP TABLE `sessions`;--> statement-breakpoint
ALTER TABLE `__new_sessions` RENAME TO `sessions`;
