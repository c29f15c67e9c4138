"""One open file of the editor: its tab, its document, its disk jobs and what it asks the user."""
