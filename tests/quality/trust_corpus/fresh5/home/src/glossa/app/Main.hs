module Main (main) where

import Glossa.Server (runServer)

main :: IO ()
main = runServer
