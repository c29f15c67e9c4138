// Page shell: header with the alarm bell.
