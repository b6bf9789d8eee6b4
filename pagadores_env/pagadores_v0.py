"""Placeholder: the PettingZoo AEC environment is being written."""
