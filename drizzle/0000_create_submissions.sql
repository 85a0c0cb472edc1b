CREATE TABLE `submissions` (
	`id` integer PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`email` text NOT NULL,
	`message` text NOT NULL,
	`ai_response` text,
	`created_at` integer NOT NULL
);
