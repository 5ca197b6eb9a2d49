"""The Qt face of gpudemo."""
