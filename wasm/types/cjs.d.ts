export = heteropipe;
