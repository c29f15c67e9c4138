SELECT
    id AS appointment_id,
    clinic_id,
    patient_id,
    slot_starts_at AT TIME ZONE 'UTC' AS starts_at_utc,
    status,
    updated_at
FROM {{ source('clinic_api', 'appointments') }}
