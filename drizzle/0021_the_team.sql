CREATE TABLE `activity` (
	`id` integer PRIMARY KEY NOT NULL,
	`at` integer NOT NULL,
	`kind` text NOT NULL,
	`member_id` integer,
	`detail` text NOT NULL,
	`subject_hash` text,
	`address` text,
	FOREIGN KEY (`member_id`) REFERENCES `team`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `activity_by_time` ON `activity` (`at`);--> statement-breakpoint
CREATE TABLE `invitations` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`member_id` integer NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	FOREIGN KEY (`member_id`) REFERENCES `team`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `invitations_by_member` ON `invitations` (`member_id`);--> statement-breakpoint
CREATE TABLE `lead_history` (
	`id` integer PRIMARY KEY NOT NULL,
	`submission_id` integer NOT NULL,
	`change` text NOT NULL,
	`member_id` integer,
	`at` integer NOT NULL,
	FOREIGN KEY (`submission_id`) REFERENCES `submissions`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`member_id`) REFERENCES `team`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `lead_history_by_submission` ON `lead_history` (`submission_id`,`id`);--> statement-breakpoint
CREATE TABLE `passkeys` (
	`id` text PRIMARY KEY NOT NULL,
	`member_id` integer NOT NULL,
	`public_key` text NOT NULL,
	`counter` integer NOT NULL,
	`transports` text NOT NULL,
	`created_at` integer NOT NULL,
	`last_used_at` integer,
	FOREIGN KEY (`member_id`) REFERENCES `team`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `passkeys_by_member` ON `passkeys` (`member_id`);--> statement-breakpoint
-- Every phone so far was the owner's, the team's first person. (Not a new table: dropping the old
-- one would take the pushes it is owed with it, foreign keys being on while migrating.)
ALTER TABLE `push_subscriptions` ADD `member_id` integer REFERENCES team(id) ON DELETE cascade;--> statement-breakpoint
UPDATE `push_subscriptions` SET `member_id` = 1;--> statement-breakpoint
CREATE INDEX `push_subscriptions_by_member` ON `push_subscriptions` (`member_id`);--> statement-breakpoint
ALTER TABLE `team` ADD `email` text;--> statement-breakpoint
ALTER TABLE `team` ADD `password_hash` text;--> statement-breakpoint
ALTER TABLE `team` ADD `joined_at` integer;--> statement-breakpoint
ALTER TABLE `team` ADD `removed_at` integer;--> statement-breakpoint
ALTER TABLE `team` ADD `mail_new_leads` integer DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE `team` ADD `push_new_leads` integer DEFAULT true NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `team_email` ON `team` (`email`) WHERE "team"."removed_at" IS NULL;--> statement-breakpoint
-- The owner so far keeps their password (the OWNER_PASSWORD last applied) and their sessions.
UPDATE `team` SET `joined_at` = `created_at`,
	`password_hash` = (SELECT 'scrypt$16384$8$1$' || salt || '$' || hash FROM `owner_password` WHERE id = 1)
	WHERE id = 1;
