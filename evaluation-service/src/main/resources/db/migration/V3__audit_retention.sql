-- Decision sets and behaviour signals are kept 90 days by event time, as the read models keep them (ExpiredAudit):
-- the old rows are found by their time.
CREATE INDEX decision_set_by_time ON decision_set_state (decided_at);
CREATE INDEX behavior_signal_by_time ON behavior_signal (occurred_at);
