ALTER TABLE `submissions` ADD `spam_reasons` text;--> statement-breakpoint
CREATE INDEX `submissions_spam_newest_first` ON `submissions` (`id`) WHERE "submissions"."spam_reasons" is not null;