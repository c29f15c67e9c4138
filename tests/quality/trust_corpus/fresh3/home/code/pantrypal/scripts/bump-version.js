// bumps app.json and package.json together
