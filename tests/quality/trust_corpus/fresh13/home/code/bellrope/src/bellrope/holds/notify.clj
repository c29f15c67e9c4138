(ns bellrope.holds.notify
  (:require [bellrope.mail.postmark :as postmark]))

(defn ready-for-pickup! [mailer hold]
  (postmark/send! mailer {:template :ready-for-pickup :hold hold}))

(defn reminder! [mailer hold]
  (postmark/send! mailer {:template :pickup-reminder :hold hold}))
