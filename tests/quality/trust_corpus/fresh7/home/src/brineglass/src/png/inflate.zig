// zlib inflate, window 32 KiB
