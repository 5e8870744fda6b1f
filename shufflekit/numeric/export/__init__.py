"""Export of shuffled privacy profiles to other accountants' representations."""
