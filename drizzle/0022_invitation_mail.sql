-- An invitation's mail is owed like every other mail, and goes with the person it invites.
ALTER TABLE `deliveries` ADD `member_id` integer REFERENCES team(id) ON DELETE cascade;--> statement-breakpoint
CREATE INDEX `deliveries_by_member` ON `deliveries` (`member_id`) WHERE "deliveries"."member_id" is not null;--> statement-breakpoint
ALTER TABLE `invitations` ADD `mail_link` text;
