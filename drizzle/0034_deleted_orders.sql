-- An order's id is never given again once deleted (with its lead, or an erased person), as a
-- lead's is (0014): its link in a mail, or a tab left open, can never reach another's order.
INSERT INTO `highest_ids` (table_name, id) SELECT 'orders', coalesce(max(id), 0) FROM `orders`;
--> statement-breakpoint
CREATE TRIGGER `orders_keep_highest_id` AFTER DELETE ON `orders` BEGIN
	UPDATE `highest_ids` SET id = max(id, old.id) WHERE table_name = 'orders';
END;
--> statement-breakpoint
-- An order still to be picked up that is deleted (with its lead, an erased person, a restored
-- backup's erasures) gives back what it took of this week's list: no one will come for it.
CREATE TRIGGER `orders_deleted_give_back_stock` BEFORE DELETE ON `orders` WHEN old.status = 'confirmed' BEGIN
	UPDATE `week_list` SET stock = stock + (
		SELECT sum(stock_taken) FROM `order_lines` WHERE order_id = old.id AND product = `week_list`.product
	)
	WHERE stock IS NOT NULL AND product IN (
		SELECT product FROM `order_lines` WHERE order_id = old.id AND stock_taken IS NOT NULL
	);
END;
