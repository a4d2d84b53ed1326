export interface Part {
  readonly name: string;
}
