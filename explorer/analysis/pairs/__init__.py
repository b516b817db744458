"""The pair table at a training step, and chunks rewound to an earlier step."""
