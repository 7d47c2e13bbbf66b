/**
 * @module data/facts
 * The facts behind exercises 01 and 05: a few per category, offline and fixed.
 */

/** The categories, in the order a tool should list them. */
export const CATEGORIES = ['space', 'animals', 'history'] as const;

export type Category = (typeof CATEGORIES)[number];

export const FACTS: Record<Category, readonly string[]> = {
  space: [
    'A day on Venus is longer than its year.',
    'Neutron stars can spin more than 600 times a second.',
    'Footprints left on the Moon can last for millions of years, because there is no wind to erase them.',
  ],
  animals: [
    'Octopuses have three hearts.',
    'A group of flamingos is called a flamboyance.',
    'Sea otters hold hands while they sleep so they do not drift apart.',
  ],
  history: [
    'Cleopatra lived closer in time to the Moon landing than to the building of the Great Pyramid.',
    'Oxford University is older than the Aztec Empire.',
    'The shortest war on record, between Britain and Zanzibar in 1896, lasted under an hour.',
  ],
};
