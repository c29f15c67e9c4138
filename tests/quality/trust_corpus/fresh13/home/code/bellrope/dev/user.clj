(ns user
  (:require [bellrope.system :as system]
            [integrant.repl :as ir]))

(ir/set-prep! #(system/config :dev))
(def go ir/go)
(def halt ir/halt)
(def reset ir/reset)
