module Glossa.Server where
