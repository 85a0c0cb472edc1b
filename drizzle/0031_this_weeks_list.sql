CREATE TABLE `product_news` (
	`product` text NOT NULL,
	`season` integer NOT NULL,
	`address_key` text NOT NULL,
	`update_id` integer,
	`told_at` integer NOT NULL,
	PRIMARY KEY(`product`, `season`, `address_key`),
	FOREIGN KEY (`update_id`) REFERENCES `updates`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE TABLE `product_waits` (
	`id` integer PRIMARY KEY NOT NULL,
	`product` text NOT NULL,
	`email` text NOT NULL,
	`address_key` text NOT NULL,
	`asked_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `product_waits_one_per_mailbox` ON `product_waits` (`product`,`address_key`);--> statement-breakpoint
CREATE TABLE `week_list` (
	`product` text PRIMARY KEY NOT NULL,
	`availability` text NOT NULL,
	`ready_from` text,
	`price_cents` integer,
	`unit` text DEFAULT '' NOT NULL,
	`note` text DEFAULT '' NOT NULL,
	`changed_at` integer NOT NULL,
	`changed_by` integer,
	FOREIGN KEY (`changed_by`) REFERENCES `team`(`id`) ON UPDATE no action ON DELETE set null
);
