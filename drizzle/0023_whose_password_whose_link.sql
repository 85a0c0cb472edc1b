-- Who made an invitation: removing or demoting them ends the links they made.
ALTER TABLE `invitations` ADD `invited_by` integer REFERENCES team(id) ON DELETE set null;--> statement-breakpoint
-- Whose password OWNER_PASSWORD was applied to: only they are let back in by a new one.
ALTER TABLE `owner_password` ADD `member_id` integer REFERENCES team(id) ON DELETE set null;--> statement-breakpoint
UPDATE `owner_password` SET `member_id` = 1;
