/**
 * @module data/books
 * The library behind exercise 03: 25 books, enough for three pages of ten.
 */

export interface Book {
  title: string;
  author: string;
  year: number;
}

export const BOOKS: readonly Book[] = [
  { title: 'The Colour of Magic', author: 'Terry Pratchett', year: 1983 },
  { title: 'The Light Fantastic', author: 'Terry Pratchett', year: 1986 },
  { title: 'Equal Rites', author: 'Terry Pratchett', year: 1987 },
  { title: 'Mort', author: 'Terry Pratchett', year: 1987 },
  { title: 'Sourcery', author: 'Terry Pratchett', year: 1988 },
  { title: 'Wyrd Sisters', author: 'Terry Pratchett', year: 1988 },
  { title: 'Pyramids', author: 'Terry Pratchett', year: 1989 },
  { title: 'Guards! Guards!', author: 'Terry Pratchett', year: 1989 },
  { title: 'Eric', author: 'Terry Pratchett', year: 1990 },
  { title: 'Moving Pictures', author: 'Terry Pratchett', year: 1990 },
  { title: 'Reaper Man', author: 'Terry Pratchett', year: 1991 },
  { title: 'A Wizard of Earthsea', author: 'Ursula K. Le Guin', year: 1968 },
  { title: 'The Left Hand of Darkness', author: 'Ursula K. Le Guin', year: 1969 },
  { title: 'The Dispossessed', author: 'Ursula K. Le Guin', year: 1974 },
  { title: 'The Lathe of Heaven', author: 'Ursula K. Le Guin', year: 1971 },
  { title: 'Dune', author: 'Frank Herbert', year: 1965 },
  { title: 'Foundation', author: 'Isaac Asimov', year: 1951 },
  { title: 'I, Robot', author: 'Isaac Asimov', year: 1950 },
  { title: 'Kindred', author: 'Octavia E. Butler', year: 1979 },
  { title: 'Parable of the Sower', author: 'Octavia E. Butler', year: 1993 },
  { title: 'Neuromancer', author: 'William Gibson', year: 1984 },
  { title: 'Hyperion', author: 'Dan Simmons', year: 1989 },
  { title: 'The Fifth Season', author: 'N. K. Jemisin', year: 2015 },
  { title: 'Ancillary Justice', author: 'Ann Leckie', year: 2013 },
  { title: 'Piranesi', author: 'Susanna Clarke', year: 2020 },
];
