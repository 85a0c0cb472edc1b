-- Each update mail's Message-ID is random (repeating one after a reinstall, or on a second site of
-- the same domain, gets the mail dropped), and kept on its row so a retry sends the same one.
UPDATE `deliveries` SET `receipt_key` = 'update.' || lower(hex(randomblob(16))) WHERE `kind` = 'update-mail' AND `receipt_key` IS NULL;
