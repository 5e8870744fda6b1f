"""Design of local randomizers for a target shuffled guarantee."""
