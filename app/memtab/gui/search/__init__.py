"""The search box (`box`) and what it needs of the Memory tab's other parts (`needs`)."""
