CREATE TABLE `order_events` (
	`id` integer PRIMARY KEY NOT NULL,
	`order_id` integer NOT NULL,
	`type` text NOT NULL,
	`at` integer NOT NULL,
	`by` integer,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`by`) REFERENCES `team`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `order_events_by_order` ON `order_events` (`order_id`);--> statement-breakpoint
CREATE TABLE `order_lines` (
	`order_id` integer NOT NULL,
	`position` integer NOT NULL,
	`product` text NOT NULL,
	`quantity` real NOT NULL,
	`unit` text DEFAULT '' NOT NULL,
	`stock_taken` real,
	`price_cents` integer,
	PRIMARY KEY(`order_id`, `position`),
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `orders` (
	`id` integer PRIMARY KEY NOT NULL,
	`submission_id` integer NOT NULL,
	`status` text DEFAULT 'confirmed' NOT NULL,
	`pick_up_date` text NOT NULL,
	`pick_up_from` text,
	`pick_up_to` text,
	`total_cents` integer,
	`confirmed_at` integer NOT NULL,
	`confirmed_by` integer,
	`changed_at` integer NOT NULL,
	`changed_by` integer,
	FOREIGN KEY (`submission_id`) REFERENCES `submissions`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`confirmed_by`) REFERENCES `team`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`changed_by`) REFERENCES `team`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `orders_by_pick_up` ON `orders` (`pick_up_date`,`pick_up_from`);--> statement-breakpoint
CREATE INDEX `orders_by_submission` ON `orders` (`submission_id`);--> statement-breakpoint
ALTER TABLE `week_list` ADD `stock` real;