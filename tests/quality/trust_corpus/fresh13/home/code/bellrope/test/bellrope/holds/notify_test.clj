(ns bellrope.holds.notify-test
  (:require [bellrope.holds.notify :as notify]
            [clojure.test :refer [deftest is]]))

(deftest ready-for-pickup-uses-its-template
  (let [sent (atom nil)
        mailer {:post (fn [_ m] (reset! sent m))}]
    (notify/ready-for-pickup! mailer {:hold-id 1})
    (is (= :ready-for-pickup (:template @sent)))))
