# implicit Euler marsh solver
