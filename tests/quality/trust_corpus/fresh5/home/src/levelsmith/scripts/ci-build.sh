#!/bin/sh
unity -batchmode -quit -executeMethod LevelSmith.Editor.Build.Windows
