// cairn
