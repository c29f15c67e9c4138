namespace LevelSmith { }
