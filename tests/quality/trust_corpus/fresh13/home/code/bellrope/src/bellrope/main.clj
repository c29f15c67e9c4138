(ns bellrope.main
  (:require [bellrope.system :as system])
  (:gen-class))

(defn -main [& [profile]]
  (system/start! (keyword (or profile "prod"))))
