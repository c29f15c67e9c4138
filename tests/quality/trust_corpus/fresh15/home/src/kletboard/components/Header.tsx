// Page header.
