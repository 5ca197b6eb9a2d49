"""What every part of the window uses: its language, theme, style sheet, shipped files and the lesson's frames."""
