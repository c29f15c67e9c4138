// import_book, list_books, save_highlight: rusqlite on the app data dir's library.db
