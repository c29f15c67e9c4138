// Every KV read and atomic write goes through here.
